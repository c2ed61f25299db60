// The one input for money and quantities (issue 27, item 1): whole NPR or whole units, typed as
// digits. Anything else (a decimal point, a minus sign where the value cannot be negative, a
// letter) stays in the box as typed and is refused under it, in the admin's language, until it is
// fixed: the input never reinterprets "99.50" as 9950. The form's own check (`fieldRules.whole`)
// refuses to send it too. Digit groups (1,25,000) are shown once the admin leaves the box.
import { Text, TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { describeProblem } from '../lib/form-errors';
import { groupedText, wholeNumberProblem } from '../lib/whole-number';

export interface WholeNumberInputProps extends Omit<TextInputProps, 'value' | 'onChange' | 'type'> {
  /** The text as typed ("" when empty); `wholeNumberOf` reads the number from it. */
  value: string;
  onChange(value: string): void;
  /** A stock change may be negative; money and counts may not. */
  allowNegative?: boolean;
  /** Shows the currency before the figure (NPR, रु). */
  money?: boolean;
}

export function WholeNumberInput({
  value,
  onChange,
  allowNegative = false,
  money = false,
  error,
  onBlur,
  label,
  ...props
}: WholeNumberInputProps) {
  const { t } = useTranslation();
  const problem = wholeNumberProblem(value, { allowNegative });
  const ownLabel = typeof label === 'string' ? label : undefined;
  return (
    <TextInput
      inputMode="numeric"
      autoComplete="off"
      label={label}
      leftSection={money ? <Text size="xs">{t('common:money.currency')}</Text> : undefined}
      leftSectionWidth={money ? 44 : undefined}
      {...props}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={(event) => {
        if (!problem) {
          const grouped = groupedText(value);
          if (grouped !== value) onChange(grouped);
        }
        onBlur?.(event);
      }}
      error={problem ? describeProblem(problem, ownLabel, t) : error}
    />
  );
}
