import { useIpcQuery } from '../../data/hooks';
import { suggestSeriesName } from '../series/preview';
import type { StepProps } from './common';
import { SeriesStepForm } from './series-fields';

/** Step 4: the first invoice series, the counter's default for fiscal invoices. */
export function InvoiceSeriesStep(props: StepProps) {
  const settings = useIpcQuery('settings.get', undefined);
  return <SeriesStepForm {...props} kind="invoice" suggestedName={suggestSeriesName(settings.data?.company?.name)} />;
}
