// What every route's `beforeLoad` can read. In its own file so that screen areas can name it
// without importing the route tree that imports them.
import type { SessionStore } from '../session/session-store';

export interface RouterContext {
  session: SessionStore;
}
