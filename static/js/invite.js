// An invite link carries its code in the address's fragment (/games/7/#invite=…), which
// browsers never send: no server or proxy logs it. The page sends it in a POST body; the
// session keeps it, and the table opens without it.
(() => {
  const code = location.hash.match(/^#invite=([A-Za-z0-9_-]{1,64})$/);
  const game = location.pathname.match(/^\/games\/(\d+)\/$/);
  if (!code || !game) return;
  const status = document.getElementById("invite-status");
  const say = (key) => { if (status) { status.textContent = status.dataset[key]; status.hidden = false; } };
  say("opening");
  const csrf = document.querySelector("[name=csrfmiddlewaretoken]");
  fetch(`/games/${game[1]}/invite/`, {
    method: "POST", credentials: "same-origin",
    headers: { "X-CSRFToken": csrf ? csrf.value : "" },
    body: new URLSearchParams({ invite: code[1] }),
  }).then((r) => {
    if (r.status === 204) location.replace(location.pathname);
    else say("invalid");
  }).catch(() => say("offline"));
})();
