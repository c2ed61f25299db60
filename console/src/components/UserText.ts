// The class for text that people typed, shown in a table cell or a flex row: a long unbroken
// word breaks inside the cell instead of widening the column and the page (user-text.css).
// Elsewhere nothing is needed: the console's body already breaks long words at a box's edge
// (main.tsx loads user-text.css).

/** `className={USER_TEXT}` on a Table.Td, Text or Stack that shows someone's note, name, title or address. */
export const USER_TEXT = 'user-text';
