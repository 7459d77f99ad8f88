// On phones the main navigation folds into a "Menu" button (without this script every
// link simply stays visible).
const nav = document.querySelector(".nav");
const toggle = document.getElementById("nav-toggle");
if (nav && toggle) {
  nav.classList.add("nav--folding");
  toggle.hidden = false;
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    nav.classList.toggle("nav--open", open);
  });
}
