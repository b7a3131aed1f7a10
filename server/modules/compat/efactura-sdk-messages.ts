import { addMessages } from '../../platform/messages';

/** Codes only the e-Factura routes of Contazen's SDK answer (efactura-sdk.ts). */
addMessages({
  efactura_setting_unsupported: {
    en: 'This service does not work that way ({param}): an invoice goes to ANAF’s test environment when it says spv_environment "test" itself, and it is sent to ANAF when you submit it, never by itself.',
    ro: 'Serviciul nu funcționează așa ({param}): o factură merge în mediul de test ANAF doar dacă are ea însăși spv_environment „test”, iar la ANAF ajunge când o trimiteți, niciodată de la sine.',
  },
  efactura_not_cancellable: {
    en: 'ANAF has (or may have) received this invoice, and e-Factura has no cancel: correct it with a storno invoice.',
    ro: 'ANAF a primit (sau este posibil să fi primit) această factură, iar e-Factura nu are anulare: corectați-o printr-o factură de stornare.',
  },
  efactura_not_submitted: {
    en: 'This invoice has no submission to e-Factura in progress: there is nothing to cancel.',
    ro: 'Această factură nu are nicio transmitere în e-Factura în curs: nu este nimic de anulat.',
  },
});
