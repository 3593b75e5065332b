import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { isStaff } from '../../http/principal.ts';
import { markdownText } from '../shared/markdown.ts';
import { metaTags } from '../shared/meta.ts';
import type { PageRenderer } from '../shared/page-context.ts';
import { ListQuery, SlugParams } from '../shared/page-schemas.ts';
import { signInGate } from '../shared/sign-in-gate.ts';
import { browse, type SiteDeps, schoolFacts, withQuery } from '../shared/site-deps.ts';
import { summary } from '../shared/text.ts';
import { viewerPrincipal } from '../shared/viewer.ts';
import { checkoutPath } from './checkout-view.ts';
import {
  myDownloadsView,
  type ProductAction,
  productJsonLd,
  productListView,
  productPath,
  productView,
} from './products-view.ts';

export const PRODUCTS_PAGE_SIZE = 12;

/**
 * The digital products: the published ones (/products), a product's page (/products/<slug>) with its buy box — or,
 * for someone who holds it, its files' download links — and "My downloads" (/downloads, signed in). Who sees and who
 * downloads what is the digital products service's one rule for the viewer; anything else is 404.
 */
export function registerProductPages(fastify: FastifyInstance, deps: SiteDeps & { render: PageRenderer }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const products = deps.areas.digitalProducts;
  const config = { page: true, sharedPage: true };

  app.get('/products', { schema: { querystring: ListQuery({}) }, config }, async (request, reply) => {
    const principal = viewerPrincipal(request.viewer);
    const [school, page] = await Promise.all([
      schoolFacts(deps.areas.school),
      browse(
        request.query,
        PRODUCTS_PAGE_SIZE,
        (cursor) => products.list(principal, { ...cursor, status: 'published' }),
        (cursor) => withQuery('/products', cursor),
      ),
    ]);
    const head = metaTags({
      title: 'Products',
      description: `Downloads from ${school.name}.`,
      url: `${deps.baseUrl}/products`,
      siteName: school.name,
      noindex: Boolean(request.query.after || request.query.before),
    });
    const pictures = await deps.pictures(page.data.map((p) => p.image_url));
    const body = productListView({ products: page.data, locale: school.locale, pictures, ...page });
    return deps.pages.send(request, reply, 'Products', body, { head });
  });

  app.get('/products/:slug', { schema: { params: SlugParams }, config }, async (request, reply) => {
    const principal = viewerPrincipal(request.viewer);
    const [{ product, downloads }, school] = await Promise.all([
      products.withDownloads(principal, request.params.slug),
      schoolFacts(deps.areas.school),
    ]);
    const pictures = await deps.pictures([product.image_url]);
    const action: ProductAction = downloads
      ? { kind: 'download', downloads, staff: isStaff(principal) }
      : product.status !== 'published'
        ? { kind: 'none' }
        : product.price && !deps.areas.orders.takesPayments
          ? { kind: 'no-payments' }
          : { kind: 'checkout', href: checkoutPath('product', product.slug), free: product.price === null };
    const head = metaTags({
      title: product.title,
      description: summary(markdownText(product.description) || product.title),
      url: `${deps.baseUrl}${productPath(product.slug)}`,
      siteName: school.name,
      noindex: product.status !== 'published',
      ...(product.image_url ? { image: product.image_url } : {}),
      jsonLd: productJsonLd(product, { baseUrl: deps.baseUrl }),
    });
    const body = productView({ product, locale: school.locale, action, pictures });
    return deps.pages.send(request, reply, product.title, body, { head });
  });

  const signedIn = signInGate();

  app.get('/downloads', { config: { page: true }, preHandler: signedIn }, async (request, reply) => {
    const items = await products.myDownloads(viewerPrincipal(request.viewer));
    return deps.render(request, reply, 'My downloads', myDownloadsView(items));
  });
}
