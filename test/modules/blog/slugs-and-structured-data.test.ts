// Pure parts of the blog: slug choice and the schema.org JSON-LD of a post.
import { describe, expect, it } from 'vitest';
import { MAX_SLUG_SUFFIX, slugFamilyPattern, uniqueSlug } from '../../../src/modules/blog/blog.slugs';
import {
  absoluteUrl,
  blogStructuredData,
  type StructuredDataInput,
} from '../../../src/modules/blog/blog.structured-data';

const now = new Date('2026-03-01T10:00:00.000Z');
const all = (base: string, upTo: number) => [
  base,
  ...Array.from({ length: upTo - 1 }, (_, i) => `${base}-${i + 2}`),
];

describe('uniqueSlug', () => {
  it.each([
    ['free base', 'tea', [], 'tea'],
    ['base taken', 'tea', ['tea'], 'tea-2'],
    ['gaps are filled', 'tea', ['tea', 'tea-2', 'tea-4'], 'tea-3'],
    ['other families do not matter', 'tea', ['teacup', 'tea-time'], 'tea'],
    ['every suffix taken: timestamp', 'tea', all('tea', MAX_SLUG_SUFFIX), `tea-${now.getTime()}`],
    [
      'even the timestamp taken',
      'tea',
      [...all('tea', MAX_SLUG_SUFFIX), `tea-${now.getTime()}`],
      `tea-${now.getTime()}-2`,
    ],
  ])('%s', (_name, base, taken, expected) => {
    expect(uniqueSlug(base, new Set(taken), now)).toBe(expected);
  });

  it('the family pattern matches base, numeric suffixes and the timestamp form only', () => {
    const re = new RegExp(slugFamilyPattern('tea'));
    for (const s of ['tea', 'tea-2', 'tea-51', `tea-${now.getTime()}`, `tea-${now.getTime()}-2`])
      expect(s).toMatch(re);
    for (const s of ['teacup', 'tea-time', 'green-tea', 'tea-2-x']) expect(s).not.toMatch(re);
  });
});

const post = (over: Partial<StructuredDataInput> = {}): StructuredDataInput => ({
  title: 'Caring for a singing bowl',
  slug: 'caring-for-a-singing-bowl',
  excerpt: 'How to clean and keep it',
  featuredImageUrl: '/files/public/bowl.webp',
  publishedAt: '2026-02-01T08:00:00.000Z',
  displayDate: null,
  updatedAt: '2026-02-02T08:00:00.000Z',
  authorName: 'Demo Admin',
  categoryName: 'Guides',
  categorySlug: 'guides',
  faqs: [],
  videos: [],
  ...over,
});

describe('blogStructuredData', () => {
  const web = 'https://shop.example.com/';

  it('an article without videos or FAQs: BlogPosting and a four-step breadcrumb, no faq entry', () => {
    const data = blogStructuredData(post(), web);
    expect(Object.keys(data).sort()).toEqual(['article', 'breadcrumb']);
    expect(data.article).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: 'Caring for a singing bowl',
      description: 'How to clean and keep it',
      image: ['https://shop.example.com/files/public/bowl.webp'],
      datePublished: '2026-02-01T08:00:00.000Z',
      dateModified: '2026-02-02T08:00:00.000Z',
      author: { '@type': 'Person', name: 'Demo Admin' },
      articleSection: 'Guides',
      url: 'https://shop.example.com/blogs/caring-for-a-singing-bowl',
      mainEntityOfPage: {
        '@type': 'WebPage',
        '@id': 'https://shop.example.com/blogs/caring-for-a-singing-bowl',
      },
    });
    expect(data.breadcrumb).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://shop.example.com/' },
        { '@type': 'ListItem', position: 2, name: 'Blog', item: 'https://shop.example.com/blogs' },
        {
          '@type': 'ListItem',
          position: 3,
          name: 'Guides',
          item: 'https://shop.example.com/blogs?category=guides',
        },
        {
          '@type': 'ListItem',
          position: 4,
          name: 'Caring for a singing bowl',
          item: 'https://shop.example.com/blogs/caring-for-a-singing-bowl',
        },
      ],
    });
  });

  it('videos become VideoObject entries of the article; FAQs an FAQPage of Questions with accepted Answers', () => {
    const data = blogStructuredData(
      post({
        featuredImageUrl: null,
        authorName: null,
        categoryName: null,
        categorySlug: null,
        faqs: [
          { question: 'Can I wash it?', answer: 'With a soft cloth only.' },
          { question: 'Does it rust?', answer: 'No.' },
        ],
        videos: [
          {
            title: 'Playing',
            videoUrl: 'https://video.example.com/1',
            description: 'How to play',
            thumbnailUrl: '/t.jpg',
          },
          { title: 'Cleaning', videoUrl: '/media/clean.mp4', description: null, thumbnailUrl: null },
        ],
      }),
      web,
    );
    expect(data.article).not.toHaveProperty('author');
    expect(data.article).not.toHaveProperty('image');
    expect(data.article.video).toEqual([
      {
        '@type': 'VideoObject',
        name: 'Playing',
        description: 'How to play',
        contentUrl: 'https://video.example.com/1',
        embedUrl: 'https://video.example.com/1',
        thumbnailUrl: 'https://shop.example.com/t.jpg',
        uploadDate: '2026-02-01T08:00:00.000Z',
      },
      {
        '@type': 'VideoObject',
        name: 'Cleaning',
        description: 'Cleaning',
        contentUrl: 'https://shop.example.com/media/clean.mp4',
        embedUrl: 'https://shop.example.com/media/clean.mp4',
        uploadDate: '2026-02-01T08:00:00.000Z',
      },
    ]);
    expect(data.faq).toEqual({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: [
        {
          '@type': 'Question',
          name: 'Can I wash it?',
          acceptedAnswer: { '@type': 'Answer', text: 'With a soft cloth only.' },
        },
        { '@type': 'Question', name: 'Does it rust?', acceptedAnswer: { '@type': 'Answer', text: 'No.' } },
      ],
    });
    // Without a category the trail is Home › Blog › post, positions 1..3.
    expect((data.breadcrumb.itemListElement as Array<{ position: number }>).map((i) => i.position)).toEqual([
      1, 2, 3,
    ]);
  });

  it('a draft-dated post falls back to displayDate, then updatedAt, for datePublished; headlines stop at 110', () => {
    expect(
      blogStructuredData(post({ publishedAt: null, displayDate: '2026-01-05T00:00:00.000Z' }), web).article
        .datePublished,
    ).toBe('2026-01-05T00:00:00.000Z');
    expect(blogStructuredData(post({ publishedAt: null }), web).article.datePublished).toBe(
      '2026-02-02T08:00:00.000Z',
    );
    expect(
      (blogStructuredData(post({ title: 'x'.repeat(200) }), web).article.headline as string).length,
    ).toBe(110);
  });

  it.each([
    ['/a.jpg', 'https://shop.example.com/a.jpg'],
    ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/a.jpg'],
  ])('absoluteUrl(%s)', (url, expected) => {
    expect(absoluteUrl('https://shop.example.com/', url)).toBe(expected);
  });
});
