import { createProduct, getProduct, listProducts, productByCode, updateProduct } from '../local/products';
import type { HandlerGroup } from './router';
import type { MainServices } from './services';

export function productHandlers(s: MainServices): HandlerGroup<'products.list' | 'products.get' | 'products.byCode' | 'products.create' | 'products.update'> {
  return {
    'products.list': (input) => listProducts(s.ctx, input),
    'products.get': ({ id }) => getProduct(s.ctx, id),
    'products.byCode': ({ code }) => productByCode(s.ctx, code),
    'products.create': (input) => {
      const product = createProduct(s.ctx, input);
      s.changed();
      return product;
    },
    'products.update': ({ id, patch }) => {
      const product = updateProduct(s.ctx, id, patch);
      s.changed();
      return product;
    },
  };
}
