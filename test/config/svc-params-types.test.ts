import { describe, expectTypeOf, it } from 'vitest';
import { type DeploymentConfig, Router, type SvcParams } from '../../src/index.js';

// These lines are checked by `tsc -p tsconfig.json` (which covers test/): each @ts-expect-error fails
// the typecheck if the line below it ever compiles.

describe('svc_params types', () => {
  it('a typo of a router key is a type error in an object literal typed as DeploymentConfig', () => {
    const typo: DeploymentConfig = {
      model_name: 'gpt',
      // @ts-expect-error `wieght` is not a key of SvcParams (did you mean `weight`?)
      svc_params: { model: 'openai/gpt-4o', wieght: 1 },
    };
    expectTypeOf(typo.svc_params.weight).toEqualTypeOf<number | undefined>();
  });

  it('a typo is a type error where the Router takes its model list', () => {
    const build = () =>
      new Router([
        // @ts-expect-error `timout` is not a key of SvcParams
        { model_name: 'gpt', svc_params: { model: 'openai/gpt-4o', api_key: 'sk', timout: 5 } },
      ]);
    expectTypeOf(build).returns.toEqualTypeOf<Router>();
  });

  it('provider pass-through values are typed and allowed', () => {
    const azure: DeploymentConfig = {
      model_name: 'azure',
      svc_params: {
        model: 'azure/gpt-4o',
        api_base: 'https://r.openai.azure.com',
        tenant_id: 't',
        client_id: 'c',
        client_secret: 'os.environ/AZURE_CLIENT_SECRET',
        azure_authority_host: 'https://login.microsoftonline.us',
        temperature: 0.2,
        top_k: 40,
        reasoning_effort: 'low',
      },
    };
    expectTypeOf(azure.svc_params.aws_region_name).toEqualTypeOf<string | undefined>();
    expectTypeOf(azure.svc_params.vertex_credentials).toEqualTypeOf<
      string | Record<string, unknown> | undefined
    >();
    // @ts-expect-error reasoning_effort takes the known levels only
    const wrong: SvcParams = { model: 'openai/o3', reasoning_effort: 'extreme' };
    expectTypeOf(wrong).toEqualTypeOf<SvcParams>();
  });

  it('DeploymentConfig<Extra> types a key this version does not know (the escape hatch)', () => {
    const list: DeploymentConfig<{ my_gateway_flag: boolean }>[] = [
      {
        model_name: 'gpt',
        svc_params: { model: 'openai/gpt-4o', api_key: 'sk-test', my_gateway_flag: true },
      },
    ];
    expectTypeOf(list[0]!.svc_params.my_gateway_flag).toEqualTypeOf<boolean>();
    expectTypeOf(new Router(list)).toEqualTypeOf<Router>();
  });
});
