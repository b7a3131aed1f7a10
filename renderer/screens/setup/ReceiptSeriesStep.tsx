import { useIpcQuery } from '../../data/hooks';
import { suggestSeriesName } from '../series/preview';
import type { StepProps } from './common';
import { SeriesStepForm } from './series-fields';

/** Step 5: the first receipt (chitanță) series: cash paid for an invoice gets its chitanță from it. */
export function ReceiptSeriesStep(props: StepProps) {
  const settings = useIpcQuery('settings.get', undefined);
  return <SeriesStepForm {...props} kind="receipt" suggestedName={`${suggestSeriesName(settings.data?.company?.name)}CH`} />;
}
