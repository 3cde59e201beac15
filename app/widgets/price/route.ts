import { pricePage } from '@/widgets/pages';
import { widgetRoute } from '@/widgets/route';

export const GET = widgetRoute('price', 'widgetPrice', pricePage);
