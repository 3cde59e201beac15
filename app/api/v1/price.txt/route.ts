import { priceTextRoute } from '@/lib/http/price-text';

// One figure of spot as one line of text, for spreadsheet cells, Home Assistant and shells (lib/http/price-text.ts).
export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = priceTextRoute();
