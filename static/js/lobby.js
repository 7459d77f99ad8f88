// The lobby: show as many bot choices as there are other seats.
const players = document.getElementById("players");
const sync = () => document.querySelectorAll(".bot-seat").forEach((p) => {
  p.hidden = Number(p.dataset.seat) >= Number(players.value);
  p.querySelector("select").disabled = p.hidden;
});
if (players) { players.addEventListener("change", sync); sync(); }
