// Implements: the operations that serve the OpenAPI documents themselves (the portal's, and the box's
// forwarded). One group of the portal's OpenAPI route table (assembled in ../operations.ts).
import { Type } from "@sinclair/typebox";
import type { PortalOperation } from "./operation.ts";

export const DOCUMENT_OPERATIONS: PortalOperation[] = [
  {
    method: "GET",
    route: "/docs/portal.openapi.json",
    tag: "Reference",
    summary: "This document",
    auth: "none",
    responses: { 200: Type.Object({ openapi: Type.String() }) },
  },
  {
    method: "GET",
    route: "/openapi.json",
    tag: "Reference",
    summary: "The running box's OpenAPI document, forwarded like every box path",
    auth: "none",
    responses: { 200: Type.Object({ openapi: Type.String() }) },
    refusals: { 502: ["box_unreachable"], 503: ["box_not_running"] },
  },
];
