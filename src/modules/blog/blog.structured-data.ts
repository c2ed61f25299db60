// The schema.org JSON-LD of a public post: a BlogPosting (with VideoObject entries when the
// post has videos), an FAQPage when it has FAQs, and the BreadcrumbList Home › Blog ›
// category › post. Each entry is a complete JSON-LD document a storefront embeds as is in a
// `<script type="application/ld+json">`.

const CONTEXT = 'https://schema.org';

export interface StructuredDataInput {
  title: string;
  slug: string;
  excerpt: string | null;
  featuredImageUrl: string | null;
  publishedAt: string | null;
  displayDate: string | null;
  updatedAt: string;
  authorName: string | null;
  categoryName: string | null;
  categorySlug: string | null;
  faqs: Array<{ question: string; answer: string }>;
  videos: Array<{ title: string; videoUrl: string; description: string | null; thumbnailUrl: string | null }>;
}

export interface BlogStructuredData {
  article: Record<string, unknown>;
  faq?: Record<string, unknown>;
  breadcrumb: Record<string, unknown>;
}

/** A site-relative URL (`/…`) made absolute on the storefront; absolute ones stay. */
export function absoluteUrl(webUrl: string, url: string): string {
  return url.startsWith('/') ? `${webUrl.replace(/\/+$/, '')}${url}` : url;
}

/** Where the storefront shows a post and the blog (`PUBLIC_WEB_URL` + `/blogs/…`). */
export const blogUrls = (webUrl: string) => {
  const base = webUrl.replace(/\/+$/, '');
  return {
    home: `${base}/`,
    blog: `${base}/blogs`,
    category: (slug: string) => `${base}/blogs?category=${encodeURIComponent(slug)}`,
    post: (slug: string) => `${base}/blogs/${encodeURIComponent(slug)}`,
  };
};

const compact = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

export function blogStructuredData(post: StructuredDataInput, webUrl: string): BlogStructuredData {
  const urls = blogUrls(webUrl);
  const url = urls.post(post.slug);
  const datePublished = post.publishedAt ?? post.displayDate ?? post.updatedAt;
  const image = post.featuredImageUrl ? absoluteUrl(webUrl, post.featuredImageUrl) : null;

  const videos = post.videos.map((v) =>
    compact({
      '@type': 'VideoObject',
      name: v.title,
      description: v.description ?? v.title,
      contentUrl: absoluteUrl(webUrl, v.videoUrl),
      embedUrl: absoluteUrl(webUrl, v.videoUrl),
      thumbnailUrl: v.thumbnailUrl ? absoluteUrl(webUrl, v.thumbnailUrl) : image,
      uploadDate: datePublished,
    }),
  );

  const article = compact({
    '@context': CONTEXT,
    '@type': 'BlogPosting',
    headline: post.title.slice(0, 110),
    description: post.excerpt,
    image: image ? [image] : null,
    datePublished,
    dateModified: post.updatedAt,
    author: post.authorName ? { '@type': 'Person', name: post.authorName } : null,
    articleSection: post.categoryName,
    url,
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    video: videos.length ? videos : null,
  });

  const faq = post.faqs.length
    ? {
        '@context': CONTEXT,
        '@type': 'FAQPage',
        mainEntity: post.faqs.map((f) => ({
          '@type': 'Question',
          name: f.question,
          acceptedAnswer: { '@type': 'Answer', text: f.answer },
        })),
      }
    : undefined;

  const trail: Array<{ name: string; item: string }> = [
    { name: 'Home', item: urls.home },
    { name: 'Blog', item: urls.blog },
  ];
  if (post.categoryName && post.categorySlug) {
    trail.push({ name: post.categoryName, item: urls.category(post.categorySlug) });
  }
  trail.push({ name: post.title, item: url });
  const breadcrumb = {
    '@context': CONTEXT,
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((t, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: t.name,
      item: t.item,
    })),
  };

  return faq ? { article, faq, breadcrumb } : { article, breadcrumb };
}
