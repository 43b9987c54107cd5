export declare const SUPPORTED_NODE: string;
export declare function unsupportedRuntimeLine(version?: string): string | null;
