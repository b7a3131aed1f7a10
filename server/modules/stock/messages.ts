import { addMessages } from '../../platform/messages';

/** Codes only the stock module answers. */
addMessages({
  warehouse_name_taken: {
    en: 'The work point already has a warehouse with this name.',
    ro: 'Punctul de lucru are deja o gestiune cu acest nume.',
  },
  stock_insufficient: {
    en: 'Not enough stock of {product}: {in_stock} {unit} in stock, {wanted} {unit} asked for. The firm does not allow selling below zero.',
    ro: 'Stoc insuficient pentru {product}: în stoc sunt {in_stock} {unit}, se cer {wanted} {unit}. Firma nu permite vânzarea sub zero.',
  },
  negative_stock: {
    en: 'Stock of {product} went below zero: {in_stock} {unit} were in stock, {wanted} {unit} sold.',
    ro: 'Stocul pentru {product} a scăzut sub zero: erau în stoc {in_stock} {unit}, s-au vândut {wanted} {unit}.',
  },
  valuation_locked: {
    en: 'The stock valuation method can no longer change: the firm already has stock documents valued at {method}. The method is chosen once, before the first reception or sale of goods.',
    ro: 'Metoda de evaluare a stocului nu se mai poate schimba: firma are deja documente de stoc evaluate prin {method}. Metoda se alege o singură dată, înainte de prima recepție sau vânzare de mărfuri.',
  },
  nir_bill_received: {
    en: 'Supplier bill {bill} was already received by NIR {nir}.',
    ro: 'Factura furnizorului {bill} a fost deja recepționată prin NIR-ul {nir}.',
  },
});
