export { countyCode } from '../../../shared/efactura/ro-counties';
