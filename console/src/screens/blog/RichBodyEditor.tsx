// The rich-text editor of a post's body (Mantine's, on tiptap), loaded only with the post
// editor (React.lazy in BodyField). Its extensions are only what the server's sanitiser keeps
// (sanitizeDescription: the common text tags, links of http, https, mailto and tel): headings
// 2–4, bold, italic, underline, strike, inline code and code blocks, quotes, lists, a rule, line
// breaks and links. No alignment, colours or images: they would be written as `style` or
// attributes the sanitiser removes.
import '@mantine/tiptap/styles.css';
import { Link, RichTextEditor, type RichTextEditorLabels } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useTranslation } from 'react-i18next';

/** A link the sanitiser keeps: a site path, or http, https, mailto or tel (never `//host`). */
export function keptLink(url: string): boolean {
  const trimmed = url.trim();
  if (trimmed.startsWith('//')) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  return scheme === undefined || ['http', 'https', 'mailto', 'tel'].includes(scheme);
}

export default function RichBodyEditor(props: {
  /** The HTML shown when the editor opens (it opens again when the HTML view hands back). */
  value: string;
  onChange(html: string): void;
  label: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation('blog');
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ heading: { levels: [2, 3, 4] }, link: false }),
      Link.configure({ isAllowedUri: (url) => keptLink(url) }),
    ],
    content: props.value,
    editable: !props.disabled,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-label': props.label },
    },
    onUpdate: ({ editor: changed }) => props.onChange(changed.isEmpty ? '' : changed.getHTML()),
  });
  const labels = t('editor.labels', { returnObjects: true }) as Partial<RichTextEditorLabels>;
  return (
    <RichTextEditor editor={editor} labels={labels as RichTextEditorLabels}>
      {!props.disabled && (
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
            <RichTextEditor.Strikethrough />
            <RichTextEditor.Code />
            <RichTextEditor.ClearFormatting />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
            <RichTextEditor.H4 />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
            <RichTextEditor.Blockquote />
            <RichTextEditor.CodeBlock />
            <RichTextEditor.Hr />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
      )}
      <RichTextEditor.Content />
    </RichTextEditor>
  );
}
