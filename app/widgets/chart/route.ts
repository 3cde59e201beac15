import { chartPage } from '@/widgets/pages';
import { widgetRoute } from '@/widgets/route';

export const GET = widgetRoute('chart', 'widgetChart', chartPage);
