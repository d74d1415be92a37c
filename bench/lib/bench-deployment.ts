/**
 * The one deployment every bench gateway serves: `gpt-4o` on the bench upstream, with prices set (so
 * that each call writes a priced spend row).
 */
export function benchModelList(upstreamUrl: string) {
  return [
    {
      model_name: 'gpt-4o',
      svc_params: {
        model: 'openai/gpt-4o',
        api_base: `${upstreamUrl}/v1`,
        api_key: 'sk-bench-upstream-key',
        input_cost_per_token: 0.0000025,
        output_cost_per_token: 0.00001,
      },
    },
  ];
}
