// A search term as an ILIKE pattern that finds it anywhere: its own `%`, `_` and `\` match
// themselves (escaped), never as wildcards.
export const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, '\\$&')}%`;
