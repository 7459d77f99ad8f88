// Push notifications on this device (the notifications page): subscribe the browser with
// the site's VAPID key and give the subscription to the server, or take it back.
const box = document.getElementById("push-setup");

function keyBytes(base64url) {
  const padded = (base64url + "===".slice((base64url.length + 3) % 4))
    .replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function send(method, body) {
  const token = box.querySelector("input[name=csrfmiddlewaretoken]").value;
  const response = await fetch(box.dataset.subscriptionsUrl, {
    method, credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": token },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const answer = await response.json().catch(() => ({}));
    throw new Error(answer.error || String(response.status));
  }
}

async function start() {
  const on = document.getElementById("push-on");
  const off = document.getElementById("push-off");
  const status = document.getElementById("push-status");
  const keyAnswer = await fetch(box.dataset.keyUrl);
  if (!keyAnswer.ok) return; // push is not set up on this site
  const { public_key: publicKey } = await keyAnswer.json();
  const registration = await navigator.serviceWorker.register(box.dataset.workerUrl,
                                                              { scope: "/" });
  await navigator.serviceWorker.ready;
  const show = (subscribed) => {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    status.textContent = subscribed ? box.dataset.onText : "";
  };
  box.hidden = false;
  show(Boolean(await registration.pushManager.getSubscription()));
  on.addEventListener("click", async () => {
    try {
      if (await Notification.requestPermission() !== "granted") {
        status.textContent = box.dataset.deniedText;
        return;
      }
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      await send("POST", subscription.toJSON());
      show(true);
    } catch (error) {
      status.textContent = error.message;
    }
  });
  off.addEventListener("click", async () => {
    const subscription = await registration.pushManager.getSubscription();
    if (subscription) {
      await send("DELETE", { endpoint: subscription.endpoint }).catch(() => {});
      await subscription.unsubscribe();
    }
    show(false);
  });
}

if (box && "serviceWorker" in navigator && "PushManager" in window) {
  start().catch(() => {});
}
