import { afterEach, beforeEach } from 'vitest';

/**
 * A stand-in for the browser's EventSource (jsdom has none): each stream a page opens is
 * kept by its URL, and the test sends it events as the server would.
 */
export class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = FakeEventSource.OPEN;
  private id = 0;

  constructor(readonly url: string) {
    super();
    FakeEventSource.opened.push(this);
  }

  /** Sends `data` as an event of `type`, with the next event id. */
  send(type: string, data: unknown) {
    this.id += 1;
    this.dispatchEvent(
      new MessageEvent(type, { data: JSON.stringify(data), lastEventId: `${this.id}_0` }),
    );
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
}

/** Installs the stand-in for every test of the file; the streams opened, newest last. */
export function installFakeEventSource() {
  beforeEach(() => {
    FakeEventSource.opened = [];
    Object.assign(globalThis, { EventSource: FakeEventSource });
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'EventSource');
  });
  return {
    /** The stream open at `path`, once the page has opened it. */
    stream: (path: string) =>
      [...FakeEventSource.opened]
        .reverse()
        .find((source) => source.url === path && source.readyState !== 2),
  };
}
