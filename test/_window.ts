// Where the page's and the report's wide tables end against the window (issue 36): shared by their tests.
import type { Page } from "playwright-core";

/** Whether each table's last column ends in the window, and whether its box scrolls sideways. */
export function lastColumns(page: Page) {
  return page.$$eval("#comparison, #perquery", (boxes) =>
    boxes.map((box) => {
      const cells = [...box.querySelectorAll("tr > :last-child")];
      const right = Math.max(...cells.map((c) => c.getBoundingClientRect().right));
      return {
        table: box.id,
        inWindow: cells.length > 0 && right <= document.documentElement.clientWidth,
        scrolls: box.scrollWidth > box.clientWidth,
      };
    }),
  );
}
