// Per-slot storage of the keyspace in fixed-size pages. An array grown by push reserves up to
// half as much again as it holds and copies itself whole to grow (at 10M keys, 80 MB copied
// while a command waits); pages grow one page at a time, never copy, and leave at most one
// page unused. Not safe for concurrent use; the keyspace's JS thread owns it.

const PAGE_BITS = 12;
const PAGE_SLOTS = 1 << PAGE_BITS;
const IN_PAGE = PAGE_SLOTS - 1;

/** What a page is: a plain array for references, a typed array for numbers. */
interface Page<T> {
  [slot: number]: T;
}

export class SlotPages<T> {
  private readonly pages: Page<T>[] = [];

  constructor(private readonly newPage: (slots: number) => Page<T>) {}

  get(s: number): T {
    return this.pages[s >>> PAGE_BITS][s & IN_PAGE];
  }

  /** Sets slot `s`, adding the page it falls in when `s` is the first slot past the end. */
  set(s: number, value: T): void {
    const page = s >>> PAGE_BITS;
    if (page === this.pages.length) this.pages.push(this.newPage(PAGE_SLOTS));
    this.pages[page][s & IN_PAGE] = value;
  }
}
