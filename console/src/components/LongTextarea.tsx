// A box for staff's own words (a reason, remarks, notes) under the API's length limit. The whole
// text stays when it is longer: a pasted paragraph is never cut short as `maxLength` would cut
// it, silently. Over the limit, the box says so in the admin's language, with the API's own
// wording of the rule, before anything is sent (and the API refuses it anyway).
import { Textarea, type TextareaProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { describeProblem, fieldRules } from '../lib/field-problems';

export function LongTextarea({
  limit,
  minRows = 2,
  ...props
}: TextareaProps & { label: string; value: string; limit: number }) {
  const { t } = useTranslation();
  const problem = fieldRules.text(props.value, { maximum: limit });
  return (
    <Textarea
      {...props}
      autosize
      minRows={minRows}
      error={props.error ?? (problem ? describeProblem(problem, props.label, t) : undefined)}
    />
  );
}
