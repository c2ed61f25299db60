// One section's form, drawn from its field list (section-forms.ts): text inputs for rich and
// plain text, links, yes/no, groups (an image, a call to action) and lists of items with Add and
// Remove. The API's validation shows under the field it names.
import {
  ActionIcon,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Field, Values } from './section-forms';
import { valuesOf } from './section-forms';

export interface FieldErrors {
  of(path: string): string | undefined;
  clear(path: string): void;
}

export function SectionFields(props: {
  fields: Field[];
  values: Values;
  onChange(values: Values): void;
  errors: FieldErrors;
  /** The form path of these values: '' at the top, `cards.2` inside a list. */
  path?: string;
}) {
  const { t } = useTranslation('content');
  const { fields, values, onChange, errors } = props;
  const at = (key: string) => (props.path ? `${props.path}.${key}` : key);
  const set = (key: string, value: unknown) => {
    errors.clear(at(key));
    onChange({ ...values, [key]: value });
  };
  const labelOf = (field: Field) => t(`fields.${field.key}`);
  const optional = (field: Field) =>
    field.kind !== 'bool' && !field.required ? t('editor.optional') : undefined;

  return (
    <Stack gap="sm">
      {fields.map((field) => {
        const path = at(field.key);
        const value = values[field.key];
        switch (field.kind) {
          case 'rich':
          case 'text':
          case 'url': {
            const common = {
              key: path,
              label: labelOf(field),
              withAsterisk: field.required,
              value: typeof value === 'string' ? value : '',
              error: errors.of(path),
              onChange: (event: { currentTarget: { value: string } }) =>
                set(field.key, event.currentTarget.value),
            };
            const help =
              field.kind === 'rich'
                ? t('editor.richHelp', { limit: field.limit })
                : field.kind === 'url'
                  ? t('editor.urlHelp')
                  : optional(field);
            return field.kind !== 'url' && field.multiline ? (
              <Textarea {...common} description={help} autosize minRows={2} />
            ) : (
              <TextInput {...common} description={help} />
            );
          }
          case 'bool':
            return (
              <Checkbox
                key={path}
                label={labelOf(field)}
                checked={value === true}
                onChange={(event) => set(field.key, event.currentTarget.checked)}
              />
            );
          case 'object':
            return (
              <Fieldset key={path} legend={labelOf(field)} variant="filled">
                {!field.required && field.key !== 'images' && (
                  <Text size="xs">{t('editor.groupOptional')}</Text>
                )}
                <SectionFields
                  fields={field.fields}
                  values={(value ?? {}) as Values}
                  onChange={(next) => set(field.key, next)}
                  errors={errors}
                  path={path}
                />
              </Fieldset>
            );
          case 'list': {
            const rows = (Array.isArray(value) ? value : []) as Values[];
            return (
              <Fieldset key={path} legend={`${labelOf(field)} (${rows.length} / ${field.max})`}>
                <Stack gap="sm">
                  {errors.of(path) && (
                    <Text size="sm" c="red.8" role="alert">
                      {errors.of(path)}
                    </Text>
                  )}
                  {rows.map((row, index) => (
                    <Fieldset
                      // Rows have no id of their own; their place is what the API names.
                      // biome-ignore lint/suspicious/noArrayIndexKey: the index is the row's identity here
                      key={index}
                      legend={t('editor.item', { what: labelOf(field), number: index + 1 })}
                      variant="filled"
                    >
                      <SectionFields
                        fields={field.fields}
                        values={row}
                        onChange={(next) =>
                          set(
                            field.key,
                            rows.map((r, i) => (i === index ? next : r)),
                          )
                        }
                        errors={errors}
                        path={`${path}.${index}`}
                      />
                      {rows.length > field.min && (
                        <Button
                          mt="xs"
                          size="xs"
                          variant="subtle"
                          color="red.8"
                          onClick={() =>
                            set(
                              field.key,
                              rows.filter((_, i) => i !== index),
                            )
                          }
                        >
                          {t('editor.removeItem', { what: labelOf(field), number: index + 1 })}
                        </Button>
                      )}
                    </Fieldset>
                  ))}
                  {rows.length < field.max && (
                    <Group>
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => set(field.key, [...rows, valuesOf(field.fields, {})])}
                      >
                        {t('editor.addItem', { what: labelOf(field) })}
                      </Button>
                    </Group>
                  )}
                </Stack>
              </Fieldset>
            );
          }
          case 'texts': {
            const rows = (Array.isArray(value) ? value : []) as string[];
            return (
              <Fieldset key={path} legend={`${labelOf(field)} (${rows.length} / ${field.max})`}>
                <Stack gap="xs">
                  {rows.map((text, index) => (
                    <Group
                      // biome-ignore lint/suspicious/noArrayIndexKey: the index is the line's identity here
                      key={index}
                      align="flex-end"
                      wrap="nowrap"
                    >
                      <Textarea
                        style={{ flex: 1 }}
                        autosize
                        minRows={1}
                        label={t('editor.item', { what: labelOf(field), number: index + 1 })}
                        value={text}
                        error={errors.of(`${path}.${index}`)}
                        onChange={(event) => {
                          errors.clear(`${path}.${index}`);
                          const next = event.currentTarget.value;
                          set(
                            field.key,
                            rows.map((r, i) => (i === index ? next : r)),
                          );
                        }}
                      />
                      {rows.length > field.min && (
                        <ActionIcon
                          variant="default"
                          mb={4}
                          onClick={() =>
                            set(
                              field.key,
                              rows.filter((_, i) => i !== index),
                            )
                          }
                          aria-label={t('editor.removeItem', { what: labelOf(field), number: index + 1 })}
                        >
                          ×
                        </ActionIcon>
                      )}
                    </Group>
                  ))}
                  {rows.length < field.max && (
                    <Group>
                      <Button size="xs" variant="default" onClick={() => set(field.key, [...rows, ''])}>
                        {t('editor.addItem', { what: labelOf(field) })}
                      </Button>
                    </Group>
                  )}
                </Stack>
              </Fieldset>
            );
          }
        }
        return null;
      })}
    </Stack>
  );
}
