/** The e-Factura document model and its rules live in shared/ so the desktop checks offline with the same code. */
export * from '../../shared/efactura/document';
