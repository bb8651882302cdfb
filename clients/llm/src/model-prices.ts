import { z } from '@farm/runtime';
import type { TokenUsage } from './token-usage';

/** US dollars per million tokens, by model name (a name also prices its dated versions: gpt-4o-2024-08-06). */
export const modelPricesSchema = z.record(
  z
    .object({
      inputPerMillion: z.number().nonnegative(),
      outputPerMillion: z.number().nonnegative(),
      /** Input tokens the endpoint's prompt cache served; without it they cost the input price. */
      cachedInputPerMillion: z.number().nonnegative().optional(),
    })
    .strict(),
);
export type ModelPrices = z.infer<typeof modelPricesSchema>;

/** List prices when no table is configured; FARM_MODEL_PRICES replaces them (prices change, check yours). */
export const DEFAULT_MODEL_PRICES: ModelPrices = {
  'gpt-4o-mini': { inputPerMillion: 0.15, cachedInputPerMillion: 0.075, outputPerMillion: 0.6 },
  'gpt-4o': { inputPerMillion: 2.5, cachedInputPerMillion: 1.25, outputPerMillion: 10 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, cachedInputPerMillion: 0.1, outputPerMillion: 1.6 },
  'gpt-4.1': { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8 },
};

/** The price entry of a model: its exact name, else the longest configured name it starts with. */
export function priceOf(prices: ModelPrices, model: string): ModelPrices[string] | undefined {
  if (prices[model]) return prices[model];
  const prefix = Object.keys(prices)
    .filter((name) => model.startsWith(`${name}-`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? prices[prefix] : undefined;
}

/** Cost of one call in US dollars; `priced` is false when the table does not know the model (cost 0). */
export function costOfCall(prices: ModelPrices, model: string, usage: TokenUsage): { usd: number; priced: boolean } {
  const price = priceOf(prices, model);
  if (!price) return { usd: 0, priced: false };
  // Cached prompt tokens are part of promptTokens (as OpenAI reports them), priced lower.
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.promptTokens);
  const input =
    (usage.promptTokens - cached) * price.inputPerMillion +
    cached * (price.cachedInputPerMillion ?? price.inputPerMillion);
  return { usd: (input + usage.completionTokens * price.outputPerMillion) / 1e6, priced: true };
}
