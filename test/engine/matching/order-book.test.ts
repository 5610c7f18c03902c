import { orderBookContract } from './order-book.contract.ts';
import { bookImplementations } from './support.ts';

for (const implementation of bookImplementations)
  orderBookContract(implementation.name, implementation.create);
