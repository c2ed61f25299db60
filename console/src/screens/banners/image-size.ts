// A placement's size rule checked against an image before it is uploaded: the same proportions
// (within 2 %) as the recommended size or aspect ratio, and at least the recommended size. Pure;
// the browser reads the image's natural size (BannersScreen's naturalSizeOf).

export interface SizeRule {
  recommendedWidth: number | null;
  recommendedHeight: number | null;
  recommendedAspectRatio: string | null;
}
export interface Size {
  width: number;
  height: number;
}
export type SizeProblem = { code: 'ratio'; ratio: string } | { code: 'small'; width: number; height: number };

const TOLERANCE = 0.02;

/** "16:9", "16/9", "3.2" or the recommended width and height → width / height; null without a rule. */
export function ratioOf(rule: SizeRule): { value: number; words: string } | null {
  if (rule.recommendedWidth && rule.recommendedHeight) {
    return {
      value: rule.recommendedWidth / rule.recommendedHeight,
      words: `${rule.recommendedWidth}:${rule.recommendedHeight}`,
    };
  }
  const text = rule.recommendedAspectRatio?.trim();
  if (!text) return null;
  const pair = /^(\d+(?:\.\d+)?)\s*[:/x×]\s*(\d+(?:\.\d+)?)$/.exec(text);
  const value = pair ? Number(pair[1]) / Number(pair[2]) : Number(text);
  return Number.isFinite(value) && value > 0 ? { value, words: text } : null;
}

export function sizeProblem(image: Size, rule: SizeRule): SizeProblem | null {
  const ratio = ratioOf(rule);
  if (ratio && Math.abs(image.width / image.height - ratio.value) / ratio.value > TOLERANCE) {
    return { code: 'ratio', ratio: ratio.words };
  }
  if (
    rule.recommendedWidth &&
    rule.recommendedHeight &&
    (image.width < rule.recommendedWidth || image.height < rule.recommendedHeight)
  ) {
    return { code: 'small', width: rule.recommendedWidth, height: rule.recommendedHeight };
  }
  return null;
}
