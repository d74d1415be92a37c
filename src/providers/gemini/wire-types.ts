/** One part of a Gemini `Content` (only the kinds this adapter writes or reads). */
export interface GeminiPart {
  text?: string;
  /** Set on reasoning summary parts (present only with `includeThoughts`). */
  thought?: boolean;
  /** Opaque reasoning state; must go back verbatim on later turns. */
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
}

/** A turn of a Gemini conversation. */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** A `:generateContent` request body (the fields this adapter sets). */
export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: GeminiPart[] };
  tools?: Array<{ functionDeclarations: Array<Record<string, unknown>> }>;
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] } };
  generationConfig?: Record<string, unknown>;
  [native: string]: unknown;
}
