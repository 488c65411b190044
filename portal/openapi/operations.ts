// Implements: the portal's route table for its OpenAPI document: every operation under `/auth/*`
// and the document routes, declared once with its schemas, refusals and who may call it. Routes
// themselves stay in each feature's routes.ts; `operations.test.ts` walks the app's registered
// routes and fails when this table and the app disagree, so the document cannot drift.
// Each route group is declared in its own file under operations/; this is their one list, in the
// order the document shows them.
import { SIGN_IN_OPERATIONS } from "./operations/sign-in.ts";
import { API_KEY_OPERATIONS } from "./operations/api-keys.ts";
import { LIBRARY_OPERATIONS } from "./operations/library.ts";
import { PORTRAIT_OPERATIONS } from "./operations/portraits.ts";
import { VOICE_KEY_OPERATIONS } from "./operations/voice-keys.ts";
import { GPU_OPERATIONS } from "./operations/gpu.ts";
import { DOCUMENT_OPERATIONS } from "./operations/documents.ts";
import type { PortalOperation } from "./operations/operation.ts";

export type { PortalAuth, PortalOperation, RawAnswer } from "./operations/operation.ts";

export const PORTAL_OPERATIONS: PortalOperation[] = [
  ...SIGN_IN_OPERATIONS,
  ...API_KEY_OPERATIONS,
  ...LIBRARY_OPERATIONS,
  ...PORTRAIT_OPERATIONS,
  ...VOICE_KEY_OPERATIONS,
  ...GPU_OPERATIONS,
  ...DOCUMENT_OPERATIONS,
];
