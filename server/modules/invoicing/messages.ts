import { addMessages, hasMessage } from '../../platform/messages';

/** Codes only this module answers. */
addMessages({
  series_locked: {
    en: 'Series {series} is locked by device {device_name} ({device_id}); only that device may issue from it.',
    ro: 'Seria {series} este blocată de dispozitivul {device_name} ({device_id}); numai acesta poate emite din ea.',
  },
  series_not_locked: {
    en: 'A `number` may be sent only by the device holding the lock of series {series}.',
    ro: 'Un `number` poate fi trimis numai de dispozitivul care deține blocarea seriei {series}.',
  },
  number_out_of_sequence: {
    en: 'Number {number} is out of sequence in series {series}: the next number is {expected}.',
    ro: 'Numărul {number} nu respectă ordinea seriei {series}: următorul număr este {expected}.',
  },
  reservation_released: {
    en: 'This number reservation was released; its number is a documented gap and cannot be used.',
    ro: 'Această rezervare de număr a fost eliberată; numărul ei este un gol documentat și nu mai poate fi folosit.',
  },
  reservation_consumed: {
    en: 'This number reservation was already used by another invoice.',
    ro: 'Această rezervare de număr a fost deja folosită de o altă factură.',
  },
  invoice_not_draft: {
    en: 'Only a draft invoice can be changed; an issued invoice is corrected by storno.',
    ro: 'Numai o factură ciornă poate fi modificată; o factură emisă se corectează prin stornare.',
  },
  invoice_is_draft: {
    en: 'This operation needs an issued invoice; this one is still a draft.',
    ro: 'Această operație cere o factură emisă; aceasta este încă ciornă.',
  },
  invoice_not_deletable: {
    en: 'Only a draft, a voided invoice or a storno invoice can be deleted; void this invoice by storno instead.',
    ro: 'Se pot șterge numai ciornele, facturile stornate sau facturile de stornare; stornați această factură.',
  },
  invoice_paid: {
    en: 'A paid or partially paid invoice cannot be deleted.',
    ro: 'O factură încasată integral sau parțial nu poate fi ștearsă.',
  },
  invoice_in_efactura: {
    en: 'This invoice was sent to the e-invoicing system and can no longer be deleted.',
    ro: 'Această factură a fost trimisă în sistemul e-Factura și nu mai poate fi ștearsă.',
  },
  already_voided: {
    en: 'This invoice is already voided by storno {storno_id}.',
    ro: 'Această factură este deja stornată prin {storno_id}.',
  },
  invoice_is_storno: {
    en: 'A storno invoice cannot itself be voided by storno.',
    ro: 'O factură de stornare nu poate fi ea însăși stornată.',
  },
  invoice_not_proforma: {
    en: 'Only an issued proforma invoice can be converted to a fiscal invoice.',
    ro: 'Numai o proformă emisă poate fi transformată în factură fiscală.',
  },
  already_converted: {
    en: 'This proforma was already converted to invoice {converted_to}.',
    ro: 'Această proformă a fost deja transformată în factura {converted_to}.',
  },
  duplicate_series: {
    en: 'The company already has a series with this name, at this or another work point; two such series would print the same numbers.',
    ro: 'Firma are deja o serie cu acest nume, la acest punct de lucru sau la altul; două astfel de serii ar tipări aceleași numere.',
  },
  payment_linked_to_receipt: {
    en: 'This payment belongs to receipt {receipt_id}; delete the receipt instead.',
    ro: 'Această plată aparține chitanței {receipt_id}; ștergeți chitanța.',
  },
});

/**
 * Codes other modules may register too (the contract names them for several resources). The text
 * registered first wins; ours is only a fallback, so two modules never clash at start-up.
 */
const shared: Record<string, { en: string; ro: string }> = {
  // Word for word the catalog's text, so either module may register it first.
  in_use: {
    en: 'This resource is in use and cannot be removed or changed that way.',
    ro: 'Această resursă este folosită și nu poate fi eliminată sau modificată astfel.',
  },
  oauth_not_configured: {
    en: 'e-Invoicing needs the OAuth link with ANAF, which this company has not completed.',
    ro: 'e-Factura necesită legătura OAuth cu ANAF, pe care această firmă nu a finalizat-o.',
  },
};
for (const [code, text] of Object.entries(shared)) {
  if (!hasMessage(code)) addMessages({ [code]: text });
}
