// The notice settings page: offer this device's time zone (the browser knows it) for the
// quiet hours; the server checks it like any other choice.
const button = document.getElementById("timezone-browser");
const select = document.getElementById("id_timezone");
let zone = "";
try {
  zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
} catch (error) {
  zone = "";
}
if (button && select && zone && zone !== select.value
    && [...select.options].some((option) => option.value === zone)) {
  button.hidden = false;
  button.title = zone;
  button.addEventListener("click", () => {
    select.value = zone;
    button.hidden = true;
  });
}
