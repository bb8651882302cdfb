/**
 * The predictions file SWE-bench's harness scores (`--predictions_path`): JSON Lines of `instance_id`,
 * `model_name_or_path` and `model_patch`, nothing else required.
 */
import { FarmError, z } from '@farm/runtime';
import { toRunAgain, type InstanceResult } from './instance-result';

export const predictionSchema = z
  .object({
    instance_id: z.string().min(1),
    model_name_or_path: z.string().min(1),
    model_patch: z.string(),
  })
  .strict();
export type Prediction = z.infer<typeof predictionSchema>;

/**
 * One prediction per judged instance or instance error; one the run has yet to finish (incomplete, or failed
 * by the farm or its environment) has no prediction yet: SWE-bench's harness would count its empty patch.
 */
export function predictionsOf(results: InstanceResult[]): Prediction[] {
  return results
    .filter((r) => !toRunAgain(r))
    .map((r) => ({ instance_id: r.instance_id, model_name_or_path: r.model_name_or_path, model_patch: r.model_patch }));
}

export function formatPredictions(predictions: Prediction[]): string {
  return predictions.map((p) => JSON.stringify(predictionSchema.parse(p)) + '\n').join('');
}

/** Reads a predictions file back, checking every line against the schema. */
export function parsePredictions(text: string, file = 'predictions'): Prediction[] {
  return text
    .split('\n')
    .map((line, i) => ({ line, no: i + 1 }))
    .filter(({ line }) => line.trim())
    .map(({ line, no }) => {
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch (err) {
        throw new FarmError(`${file}:${no}: not valid JSON: ${(err as Error).message}`, { retryable: false });
      }
      const parsed = predictionSchema.safeParse(json);
      if (!parsed.success) {
        const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(the line)'}: ${i.message}`).join('; ');
        throw new FarmError(`${file}:${no}: not a prediction: ${why}`, { retryable: false });
      }
      return parsed.data;
    });
}
