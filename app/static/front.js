// The front page's pictures: each is its own request, and on a day's first visit the service makes that
// daily puzzle while the browser waits. A busy service answers 503 (its workers' queue is full) and a
// client past its budget 429; an <img> cannot read Retry-After, so a failed picture is asked for again
// a little later each time, a few times, and its card says what is happening meanwhile.
const RETRIES = 6;
const FIRST_WAIT_MS = 1500;

function watch(img) {
  const card = img.closest("a");
  let tries = 0;
  const retry = () => {
    if (tries >= RETRIES) {
      card.classList.replace("waiting", "failed");
      return;
    }
    tries += 1;
    card.classList.add("waiting");
    setTimeout(() => {
      const url = img.getAttribute("src");
      img.removeAttribute("src");
      img.setAttribute("src", url);
    }, FIRST_WAIT_MS * tries);
  };
  img.addEventListener("error", retry);
  img.addEventListener("load", () => card.classList.remove("waiting", "failed"));
  if (img.complete && img.naturalWidth === 0 && img.getAttribute("src")) retry(); // failed before this ran
}

document.querySelectorAll("img[data-daily]").forEach(watch);
document.body.dataset.ready = "true";
