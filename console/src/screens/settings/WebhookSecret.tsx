// The signing secret, shown once (after creation or rotation) with a copy button: the server
// never shows it again.
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function WebhookSecret(props: { secret: string; title: string; onClose: () => void }) {
  const { t } = useTranslation('settings');
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('form.close') }}
      opened
      onClose={props.onClose}
      title={props.title}
      size="lg"
    >
      <Stack>
        {/* The title in dark text: orange words on the orange tint fail WCAG AA contrast. */}
        <Alert
          color="orange"
          title={t('secret.onceTitle')}
          styles={{ title: { color: 'var(--mantine-color-gray-9)' } }}
        >
          {t('secret.onceText')}
        </Alert>
        <Text size="sm" fw={600} id="webhook-secret-label">
          {t('secret.label')}
        </Text>
        <Code block aria-labelledby="webhook-secret-label" style={{ wordBreak: 'break-all' }}>
          {props.secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={props.secret}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? t('secret.copied') : t('secret.copy')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={props.onClose}>{t('secret.done')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
