// The scan field: a USB barcode scanner types the code into the focused field and presses
// Enter, exactly as a cashier typing it does; Enter adds the product. A product number (the
// shelf label's code) is read at once; words are searched by title, and a single match is
// added, several are listed (↓ moves into the list, Enter adds, Esc goes back).
import { Button, Group, Loader, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Money } from '../../components/Formatted';
import { describeError, isPasalError } from '../../lib/api-errors';
import { formatCount } from '../../lib/format';
import { useClient } from '../../session/session';
import { fetchProduct, type Product, searchProducts } from './counter-api';
import { parseScan } from './sale-rules';

const SUGGEST_DELAY_MS = 250;

export function ScanBox({
  inputRef,
  disabled,
  onAdd,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  disabled: boolean;
  onAdd(product: Product, quantity: number): void;
}) {
  const { t } = useTranslation('counter');
  const client = useClient();
  const [text, setText] = useState('');
  const [words, setWords] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);

  // The till opens ready to scan.
  useEffect(() => {
    inputRef.current?.focus();
  }, [inputRef]);

  // Suggestions follow typed words (not a number: a scanner's code is read on Enter).
  useEffect(() => {
    const scan = parseScan(text);
    const next = scan && scan.productId === null && scan.words.length >= 2 ? scan.words : '';
    const timer = setTimeout(() => setWords(next), SUGGEST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const suggestions = useQuery({
    queryKey: ['counter', 'products', words],
    queryFn: () => searchProducts(client, words),
    enabled: words !== '',
    staleTime: 10_000,
    meta: { action: t('actions.search') },
  });

  const take = (product: Product, quantity: number) => {
    if (product.status !== 'published' || !product.isSellable) {
      setProblem(t('scan.notForSale', { title: product.title }));
      return;
    }
    onAdd(product, quantity);
    setWords('');
    setProblem(null);
  };

  // A scanner sends the next code before the last one is read: each Enter takes the field's
  // text at once (the field is free for the next code) and codes are read one after another.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const [pending, setPending] = useState(0);
  const read = async (scan: NonNullable<ReturnType<typeof parseScan>>) => {
    if (scan.productId !== null) {
      try {
        take(await fetchProduct(client, scan.productId), scan.quantity);
      } catch (error) {
        setProblem(
          isPasalError(error) && error.status === 404
            ? t('scan.unknownCode', { code: scan.words })
            : describeError(error, t),
        );
      }
      return;
    }
    const found = await searchProducts(client, scan.words);
    const exact = found.filter((p) => p.title.toLowerCase() === scan.words.toLowerCase());
    const only = exact.length === 1 ? exact[0] : found.length === 1 ? found[0] : undefined;
    if (only) take(only, scan.quantity);
    else if (found.length === 0) setProblem(t('scan.noMatch', { words: scan.words }));
    else {
      // Several match: the list is offered, with the words back in the field.
      setText(scan.words);
      setWords(scan.words);
    }
  };
  const enter = () => {
    const scan = parseScan(text);
    if (!scan) return;
    setText('');
    setProblem(null);
    setPending((n) => n + 1);
    queue.current = queue.current
      .then(() => read(scan))
      .catch((error: unknown) => setProblem(describeError(error, t)))
      .finally(() => setPending((n) => n - 1));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      enter();
    } else if (event.key === 'ArrowDown') {
      const first = listRef.current?.querySelector('button');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    } else if (event.key === 'Escape') {
      setText('');
    }
  };

  const onListKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const buttons = Array.from(listRef.current?.querySelectorAll('button') ?? []);
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'ArrowDown' && at < buttons.length - 1) {
      event.preventDefault();
      buttons[at + 1]?.focus();
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      if (at <= 0) inputRef.current?.focus();
      else buttons[at - 1]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      inputRef.current?.focus();
    }
  };

  const quantity = parseScan(text)?.quantity ?? 1;
  const list = words && suggestions.data ? suggestions.data : [];
  return (
    <Stack gap="xs">
      <TextInput
        ref={inputRef}
        label={t('scan.label')}
        description={t('scan.hint')}
        placeholder={t('scan.placeholder')}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setProblem(null);
        }}
        onKeyDown={onKeyDown}
        disabled={disabled}
        error={problem}
        rightSection={pending > 0 ? <Loader size="xs" aria-label={t('scan.reading')} /> : null}
        autoComplete="off"
        spellCheck={false}
        size="md"
      />
      {list.length > 0 && (
        <Paper withBorder p={4}>
          <ul
            ref={listRef}
            aria-label={t('scan.suggestions')}
            onKeyDown={onListKeyDown}
            style={{ listStyle: 'none', margin: 0, padding: 0 }}
          >
            {list.map((product) => (
              <li key={product.id}>
                <Button
                  variant="subtle"
                  fullWidth
                  justify="space-between"
                  onClick={() => {
                    take(product, quantity);
                    setText('');
                    inputRef.current?.focus();
                  }}
                  styles={{ label: { width: '100%' } }}
                >
                  <Group justify="space-between" wrap="nowrap" w="100%" gap="sm">
                    <Text size="sm" truncate>
                      {product.title}
                    </Text>
                    <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {t('scan.code', { code: product.id })} ·{' '}
                      {product.stock
                        ? t('scan.inStock', {
                            count: product.stock.available,
                            formatted: formatCount(product.stock.available),
                          })
                        : t('scan.noStockKept')}{' '}
                      · <Money amount={product.effectivePrice} />
                    </Text>
                  </Group>
                </Button>
              </li>
            ))}
          </ul>
        </Paper>
      )}
    </Stack>
  );
}
