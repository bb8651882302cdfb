import { stepImages } from './farm-image';

describe("a build's step images", () => {
  it('are those its output names, made or taken from the cache', () => {
    const output = [
      '[1/2] STEP 2/4: WORKDIR /src',
      '--> Using cache d0e1354bee949781b16cc58719be06c7d2ac5cdc234d3246c306e075057e673d',
      '--> d0e1354bee9',
      '[1/2] STEP 3/4: COPY . .',
      '--> 65decb8ea20',
      '[2/2] COMMIT localhost/agent-farm:dev',
      '--> 72a6f5f6ab0',
    ].join('\n');
    expect(stepImages(output)).toEqual([
      'd0e1354bee949781b16cc58719be06c7d2ac5cdc234d3246c306e075057e673d',
      'd0e1354bee9',
      '65decb8ea20',
      '72a6f5f6ab0',
    ]);
  });
});
