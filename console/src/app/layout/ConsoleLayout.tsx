// The signed-in frame: header (store name, language, who is signed in, sign out), the menu
// built from every screen area's entries the admin may use, and the screen.
import { AppShell, Badge, Burger, Button, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Navigate, Outlet, useLocation, useMatches, useNavigate } from '@tanstack/react-router';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingState } from '../../components/StatePanels';
import { LanguageSwitch } from '../../i18n/LanguageSwitch';
import { screenAreas } from '../../screens';
import { NotificationBell } from '../../screens/notifications';
import { SECURITY_PATH } from '../../screens/security';
import { useSession } from '../../session/session';
import { NoAccess, SessionEnded } from '../fallbacks';

export function ConsoleLayout() {
  const { status } = useSession();
  if (status === 'ended') return <SessionEnded />;
  // Signed out: the route's beforeLoad (or the sign-out button) is already taking them to sign-in.
  if (status === 'signed-out') return null;
  return <SignedInFrame />;
}

function SignedInFrame() {
  // Every area's namespace, for the menu labels (each a small chunk).
  const { t } = useTranslation(['common', ...screenAreas.map((area) => area.namespace)]);
  const { admin, role, can, signOut, enrolmentRequired } = useSession();
  const navigate = useNavigate();
  const [menuOpen, { toggle, close }] = useDisclosure();
  const { pathname } = useLocation();
  const matches = useMatches();
  const refused = matches.map((match) => match.staticData?.permission).find((code) => code && !can(code));

  // STAFF_2FA_REQUIRED and no 2FA yet: the API admits them to the Security page only, so the
  // console offers nothing else and takes every other address there.
  const entries = screenAreas
    .flatMap((area) => area.menu)
    .filter((entry) => can(entry.permission) && (!enrolmentRequired || entry.path === SECURITY_PATH));
  // The screen the outlet would render (the location may already name the next one while its
  // match is still the old screen's): no other screen may mount, or its requests would be refused.
  const shown = matches.at(-1)?.pathname;
  if (enrolmentRequired && (pathname !== SECURITY_PATH || shown !== SECURITY_PATH)) {
    return pathname === SECURITY_PATH ? <LoadingState /> : <Navigate to={SECURITY_PATH} replace />;
  }
  const isActive = (path: string) =>
    path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !menuOpen } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={menuOpen}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('common:layout.toggleMenu')}
            />
            <Text fw={700} size="lg">
              {t('common:layout.brand')}
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {/* Only once the session's role is known and not confined to turning 2FA on. */}
            {role && !enrolmentRequired && <NotificationBell />}
            <LanguageSwitch />
            {admin && (
              <Group gap={6} visibleFrom="sm" wrap="nowrap">
                <Text size="sm">{admin.name}</Text>
                {role && (
                  <Badge variant="light" size="sm">
                    {role}
                  </Badge>
                )}
              </Group>
            )}
            <Button
              variant="default"
              size="xs"
              onClick={async () => {
                await signOut();
                await navigate({ to: '/sign-in' });
              }}
            >
              {t('common:actions.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" component="nav" aria-label={t('common:layout.menu')}>
        {/* The browser's own scrolling: Mantine's ScrollArea brings the popover positioning
            library (@floating-ui) into the chunk the sign-in screen loads. */}
        <AppShell.Section grow style={{ overflowY: 'auto' }}>
          {entries.map((entry) => (
            <NavLink
              key={entry.path}
              component={Link}
              to={entry.path}
              label={t(entry.labelKey)}
              active={isActive(entry.path)}
              // Filled: white on the primary colour keeps its contrast under the pointer too
              // (the light variant's hover shade does not).
              variant="filled"
              aria-current={isActive(entry.path) ? 'page' : undefined}
              onClick={close}
            />
          ))}
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        {refused ? (
          <NoAccess permission={refused} />
        ) : (
          <Suspense fallback={<LoadingState />}>
            <Outlet />
          </Suspense>
        )}
      </AppShell.Main>
    </AppShell>
  );
}
