export { AnafError, AnafOAuthError, isAnafError, type AnafErrorKind, type OAuthErrorCode } from './errors';
export { defaultHttpPolicy, type HttpPolicy, type HttpDeps } from './http';
export {
  ANAF_OAUTH_BASE_URL,
  AnafTokenManager,
  MemoryTokenStore,
  anafTokensSchema,
  buildAuthorizeUrl,
  exchangeCodeForTokens,
  refreshAnafTokens,
  type AccessTokenSource,
  type AnafOAuthConfig,
  type AnafTokens,
  type StoredTokens,
  type TokenStore,
} from './oauth';
export {
  EFACTURA_BASE_URLS,
  EFACTURA_PUBLIC_BASE_URL,
  EfacturaClient,
  normalizeCif,
  readAnswerZip,
  type DownloadResult,
  type EfacturaClientOptions,
  type EfacturaEnvironment,
  type EfacturaMessage,
  type MessageFilter,
  type MessageList,
  type MessagePage,
  type MessageStatus,
  type PdfStandard,
  type UploadOptions,
  type UploadResult,
  type UploadStandard,
} from './efactura-client';
export {
  ANAF_PUBLIC_BASE_URL,
  PublicDataClient,
  type BalanceSheetData,
  type BalanceSheetResult,
  type CompanyLookup,
  type CompanyLookupBatch,
  type PublicDataClientOptions,
} from './public-data-client';
export { mapBalanceSheetIndicators, normalizeIndicatorName, type BilantIndicator } from './balance-sheet-indicators';
export { anafStampToIso } from './romania-time';
