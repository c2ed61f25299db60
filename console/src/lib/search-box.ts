// A list's search box: it holds what is typed, and the address follows once typing pauses
// (replacing, not pushing: Back should not step through every letter typed).
import { useEffect, useRef, useState } from 'react';

/** How long typing may pause before the list follows the search box. */
const SEARCH_DELAY_MS = 350;

export function useSearchBox(current: string, follow: (search: string) => void) {
  const [text, setText] = useState(current);
  // The latest callback, so a parent's re-render does not restart the pause.
  const followRef = useRef(follow);
  followRef.current = follow;
  useEffect(() => {
    // The address changed by other means (Back, "Clear filters"): the box shows it.
    setText((typed) => (typed.trim() === current ? typed : current));
  }, [current]);
  useEffect(() => {
    if (text.trim() === current) return;
    const timer = setTimeout(() => followRef.current(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, current]);
  return {
    text,
    setText,
    /** Enter in the box: follow at once. */
    commit: () => {
      if (text.trim() !== current) followRef.current(text.trim());
    },
  };
}
