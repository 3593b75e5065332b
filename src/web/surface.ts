import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { Areas } from '../areas/index.ts';
import type { ConnectedApps } from '../areas/oauth-port.ts';
import type { Config } from '../config.ts';
import type { InternalCalls } from '../http/internal-calls.ts';
import { installValidators } from '../http/validation.ts';
import type { EmailVerificationService } from '../identity/email-verification.ts';
import type { PasswordResetService } from '../identity/password-reset.ts';
import type { SessionService } from '../identity/sessions.ts';
import type { SetupService } from '../identity/setup.ts';
import type { SignInService } from '../identity/signin.ts';
import { registerInteractionRoutes } from '../oauth/interactions/routes.ts';
import type { OperationCaller } from '../operations/operation-calls.ts';
import type { OperationTool } from '../operations/operation-tools.ts';
import type { TestProvider } from '../payments/test-provider.ts';
import { resourceIdentifiers } from '../security/oauth-endpoints.ts';
import type { Clock } from '../time/clock.ts';
import { registerAccountPage } from './account/account-page.ts';
import { registerCertificatePages } from './account/certificate-page.ts';
import { registerAccountAppsPage } from './account/connected-apps-page.ts';
import { registerLearnPages } from './account/learn-pages.ts';
import { registerPasswordPages } from './account/password-pages.ts';
import { registerSetupPage } from './account/setup-page.ts';
import { registerSignInPages } from './account/signin-page.ts';
import { registerSignUpPage } from './account/signup-page.ts';
import { registerVerifyEmailPage } from './account/verify-email-page.ts';
import { indexOperations } from './admin/catalog.ts';
import { registerDashboardPage } from './admin/dashboard-page.ts';
import { adminCalls } from './admin/form-kit/calls.ts';
import { registerAdmin } from './admin/register.ts';
import type { PageRenderer, PageWriter, SchoolName } from './shared/page-context.ts';
import type { SiteDeps } from './shared/site-deps.ts';
import { type BrowserSessions, registerViewer, type SessionCookie } from './shared/viewer.ts';
import { registerCheckoutPages } from './site/checkout-pages.ts';
import { registerPostPages } from './site/post-page.ts';
import { registerPublicSite } from './site/register.ts';

/**
 * The server-rendered pages as a surface of the app, in one scope where the browser session says who is calling:
 * first run, sign-in and sign-up, passwords, the authorization server's sign-in and consent, the public site, the
 * learner's pages, checkout, the dashboard, the admin and certificates.
 */
export async function registerPageSurface(
  app: FastifyInstance,
  deps: {
    areas: Areas;
    site: SiteDeps;
    render: PageRenderer;
    write: PageWriter;
    schoolName: SchoolName;
    school: Parameters<typeof registerCertificatePages>[1]['school'];
    sessions: SessionService;
    cookie: SessionCookie;
    browser: BrowserSessions;
    setup: SetupService;
    signin: SignInService;
    passwordReset: PasswordResetService;
    verification: EmailVerificationService;
    provider: () => Provider;
    connectedApps: ConnectedApps;
    testPayments: TestProvider | undefined;
    operations: readonly OperationTool[];
    callOperation: OperationCaller;
    internalCalls: InternalCalls;
    clock: Clock;
    config: Config;
  },
) {
  const { areas, site, render, write, browser, config, operations, callOperation } = deps;
  await app.register(async (pages: FastifyInstance) => {
    // The API's validators: a form's unknown field or wrong type is refused, never dropped or coerced.
    installValidators(pages);
    registerViewer(pages, { sessions: deps.sessions, cookie: deps.cookie });

    registerPublicSite(pages, { ...site, setup: deps.setup, render });
    registerSetupPage(pages, { setup: deps.setup, browser, render });
    registerSignInPages(pages, { signin: deps.signin, browser, render });
    registerSignUpPage(pages, { signin: deps.signin, browser, render });
    registerPasswordPages(pages, { reset: deps.passwordReset, browser, render });
    registerVerifyEmailPage(pages, { verification: deps.verification, render });
    registerInteractionRoutes(pages, {
      provider: deps.provider,
      render,
      defaultResource: resourceIdentifiers(config.BASE_URL).api,
      clock: deps.clock,
    });
    registerAccountAppsPage(pages, { apps: deps.connectedApps, render });
    registerAccountPage(pages, { account: areas.account, school: areas.school, browser, render });
    registerPostPages(pages, {
      posts: areas.posts,
      comments: areas.comments,
      render,
      pages: site.pages,
      baseUrl: config.BASE_URL,
      schoolName: deps.schoolName,
      school: areas.school,
      pictures: site.pictures,
      share: site.share,
    });
    registerLearnPages(pages, { areas, render });
    const dashboard = registerDashboardPage(pages, { analytics: areas.analytics, school: areas.school, write });
    registerCheckoutPages(pages, {
      areas,
      render,
      testPayments: deps.testPayments,
      call: adminCalls({ operations: indexOperations(operations), call: callOperation }),
    });
    registerAdmin(pages, {
      operations,
      callOperation,
      write,
      app,
      internalCalls: deps.internalCalls,
      now: () => deps.clock.now().getTime(),
      dashboard,
      school: deps.school,
      facts: {
        smtpHost: config.SMTP_URL ? new URL(config.SMTP_URL).hostname : undefined,
        payments: config.PAYMENTS_PROVIDER,
      },
    });
    registerCertificatePages(pages, {
      certificates: areas.certificates,
      school: deps.school,
      baseUrl: config.BASE_URL,
      render,
    });
  });
}
