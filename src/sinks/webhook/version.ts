import { packageField } from '../../util/package-json.js';

/** The package version for `User-Agent: agentwatch/<version>`. */
export const packageVersion = (): string => packageField('version') ?? '0.0.0';
