/** Reading v2 futures (mix) request fields: productType in any case, symbols, references. */
import { FUTURES_CATEGORIES, parseCategory, type Category } from '../../domain/category.ts';
import type { OrderReference } from '../../domain/commands.ts';
import { optionalString, requiredString, type Fields } from '../params.ts';
import { reject } from '../request.ts';

export function productTypeOf(fields: Fields): Category {
  const category = parseCategory(requiredString(fields, 'productType'), FUTURES_CATEGORIES);
  if (!category) reject('PARAM_ERROR', 'productType');
  return category;
}

export function mixReference(fields: Fields, category: Category): OrderReference {
  const orderId = optionalString(fields, 'orderId');
  const clientOid = optionalString(fields, 'clientOid');
  if (!orderId && !clientOid) reject('PARAM_EMPTY', 'orderId');
  const symbol = optionalString(fields, 'symbol')?.toUpperCase();
  return {
    ...(orderId ? { orderId } : { clientOid: clientOid ?? '' }),
    ...(symbol ? { symbol } : {}),
    category,
  };
}
