// The few parts of oidc-provider (which ships no types) the test identity provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }
  interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<AccountClaims> | AccountClaims;
  }
  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface AccessToken {
    save(): Promise<string>;
  }
  interface ClientRecord {
    clientId: string;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
    Client: { find(id: string): Promise<ClientRecord | undefined> };
    Grant: new (init: {
      accountId: string;
      clientId: string;
    }) => Grant;
    AccessToken: new (init: {
      accountId: string;
      client: ClientRecord;
      scope: string;
      grantId: string;
    }) => AccessToken;
  }
  export type { Account, AccountClaims };
}
