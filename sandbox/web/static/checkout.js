// The checkout page's live part: poll the payment's status, redraw it, count down.
(function () {
  const page = document.getElementById("checkout");
  const timeLeft = document.getElementById("time-left");
  let seconds = Number(timeLeft.dataset.seconds);
  let frozen = timeLeft.dataset.frozen === "true";
  let status = timeLeft.dataset.status;

  function showTimeLeft() {
    if (status !== "OPEN") {  // the window has closed: paid in time, or expired
      timeLeft.textContent = status === "COMPLETED" ? "none needed: paid" : "none: expired";
      return;
    }
    const s = Math.max(0, Math.floor(seconds));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), rest = s % 60;
    timeLeft.textContent = (h ? h + "h " : "") + String(m).padStart(2, "0") + "m " + String(rest).padStart(2, "0") + "s"
      + (frozen ? " (clock frozen)" : "");
  }

  function text(id, value) {
    const element = document.getElementById(id);
    if (element) element.textContent = value;
  }

  function redraw(state) {
    const badge = document.getElementById("display-status");
    badge.textContent = state.displayStatus;
    badge.className = "status status-" + state.displayStatus.toLowerCase();
    text("status", state.status);
    text("received", state.totalReceivedAmount);
    text("confirming", state.confirmingAmount);
    text("missing", state.missingAmount);
    seconds = state.secondsLeft;
    status = state.status;
    frozen = state.frozen;
    showTimeLeft();
    document.getElementById("simulate").hidden = !state.acceptsDeposits;
    const list = document.getElementById("deposits");
    list.replaceChildren(...state.deposits.map(function (d) {
      const item = document.createElement("li");
      item.textContent = d.amount + " " + page.dataset.asset + " · " + (d.confirmed ? "confirmed" : "confirming") + (d.isDanger ? " · AML danger" : "");
      return item;
    }));
  }

  async function poll() {
    try {
      const response = await fetch(page.dataset.statusUrl, {headers: {"Accept": "application/json"}});
      if (response.ok) redraw(await response.json());
      if (response.status === 404) {  // gone: the merchant reset its data or restored a snapshot
        text("display-status", "NOT FOUND");
        document.getElementById("simulate").hidden = true;
      }
    } catch (error) {
      // the sandbox restarting: try again at the next tick
    }
  }

  showTimeLeft();
  setInterval(function () { if (!frozen && seconds > 0) { seconds -= 1; showTimeLeft(); } }, 1000);
  setInterval(poll, Number(page.dataset.pollSeconds) * 1000);
})();
