import contract from '../../../../../insight-common/src/main/resources/io/flinkinsight/common/client-figures.json';
import { CLIENT_FIGURES, CLIENT_SCOPE } from './client-figures.generated';

describe('client-figures.generated.ts', () => {
  it('declares exactly the figures of the interactive client (else: npm run generate:client-figures)', () => {
    expect(CLIENT_SCOPE).toBe(contract.scope);
    expect(CLIENT_FIGURES).toEqual(
      contract.figures.map((f) => ({ group: f.group, name: f.name, kind: f.kind, unit: f.unit, help: f.help,
        ratio: 'ratio' in f ? f.ratio : null })),
    );
  });
});
