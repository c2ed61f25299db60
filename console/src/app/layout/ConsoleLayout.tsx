// The signed-in frame: header (store name, notifications, language, who is signed in, sign
// out), the menu built from every screen area's entries the admin may use, and the screen. On
// a phone the header keeps the menu button, the name and the bell; the rest is in the menu.
import { AppShell, Badge, Burger, Button, Group, NavLink, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Navigate, Outlet, useLocation, useMatches, useNavigate } from '@tanstack/react-router';
import { Suspense, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingState } from '../../components/StatePanels';
import { LanguageSwitch } from '../../i18n/LanguageSwitch';
import { useNarrowScreen } from '../../lib/narrow-screen';
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

const MENU_ID = 'console-menu';

function SignOutButton({ fullWidth }: { fullWidth?: boolean }) {
  const { t } = useTranslation();
  const { signOut } = useSession();
  const navigate = useNavigate();
  return (
    <Button
      variant="default"
      size="xs"
      fullWidth={fullWidth}
      style={{ flex: 'none' }}
      onClick={async () => {
        await signOut();
        await navigate({ to: '/sign-in' });
      }}
    >
      {t('common:actions.signOut')}
    </Button>
  );
}

function SignedInFrame() {
  // Every area's namespace, for the menu labels (each a small chunk).
  const { t } = useTranslation(['common', ...screenAreas.map((area) => area.namespace)]);
  const { admin, role, can, enrolmentRequired } = useSession();
  const [menuOpen, { toggle, close }] = useDisclosure();
  const menuButton = useRef<HTMLButtonElement>(null);
  const narrow = useNarrowScreen();
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
  // The entry of the page shown: the one whose path is the longest match, so /counter/sales
  // marks "Counter sales" and not "Counter" too, and /orders/123 still marks "Orders".
  const matching = (path: string) =>
    path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);
  const current = entries
    .filter((entry) => matching(entry.path))
    .reduce<string | null>(
      (longest, entry) => (longest && longest.length >= entry.path.length ? longest : entry.path),
      null,
    );
  const account = (
    <>
      {role && !enrolmentRequired && <NotificationBell />}
      {!narrow && <LanguageSwitch />}
      {admin && !narrow && (
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{admin.name}</Text>
          {role && (
            <Badge variant="light" size="sm">
              {role}
            </Badge>
          )}
        </Group>
      )}
      {!narrow && <SignOutButton />}
    </>
  );

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !menuOpen } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Burger
              ref={menuButton}
              opened={menuOpen}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('common:layout.toggleMenu')}
              aria-expanded={menuOpen}
              aria-controls={MENU_ID}
            />
            <Text fw={700} size="lg" lh={1.2}>
              {t('common:layout.brand')}
            </Text>
          </Group>
          {/* On a phone only the bell stays here: the language switch, who is signed in and
              sign-out are in the menu (at 390 px they were cut to "Englisl" and "Sign ou"). */}
          <Group gap="sm" wrap="nowrap">
            {account}
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar
        p="xs"
        id={MENU_ID}
        // Closed on a phone, the menu only slides off the screen: hidden, so Tab skips it.
        style={narrow && !menuOpen ? { visibility: 'hidden' } : undefined}
        onKeyDown={(event) => {
          if (narrow && menuOpen && event.key === 'Escape') {
            close();
            menuButton.current?.focus();
          }
        }}
      >
        {/* The browser's own scrolling: Mantine's ScrollArea brings the popover positioning
            library (@floating-ui) into the chunk the sign-in screen loads. */}
        <AppShell.Section
          grow
          component="nav"
          aria-label={t('common:layout.menu')}
          style={{ overflowY: 'auto' }}
        >
          {entries.map((entry) => (
            <NavLink
              key={entry.path}
              component={Link}
              to={entry.path}
              // The router's own marking (aria-current) only for this very address: a prefix
              // match would mark "Counter" on /counter/sales as well. `current` decides.
              activeOptions={{ exact: true, includeSearch: false }}
              label={t(entry.labelKey)}
              active={entry.path === current}
              // Filled: white on the primary colour keeps its contrast under the pointer too
              // (the light variant's hover shade does not).
              variant="filled"
              aria-current={entry.path === current ? 'page' : undefined}
              onClick={close}
            />
          ))}
        </AppShell.Section>
        {narrow && (
          <AppShell.Section
            role="group"
            aria-label={t('common:layout.account')}
            pt="sm"
            mt="xs"
            style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
          >
            <Stack gap="xs">
              {admin && (
                <Group gap={6} wrap="wrap">
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {admin.name}
                  </Text>
                  {role && (
                    <Badge variant="light" size="sm">
                      {role}
                    </Badge>
                  )}
                </Group>
              )}
              <LanguageSwitch />
              <SignOutButton fullWidth />
            </Stack>
          </AppShell.Section>
        )}
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
