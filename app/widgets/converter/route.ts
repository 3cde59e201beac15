import { converterPage } from '@/widgets/pages';
import { widgetRoute } from '@/widgets/route';

export const GET = widgetRoute('converter', 'widgetConverter', converterPage);
