/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SITE_URL?: string;
  readonly VITE_VAPI_PUBLIC_KEY?: string;
  readonly VITE_VAPI_ASSISTANT_ID?: string;
  readonly VITE_VAPI_API_URL?: string;
  readonly VITE_VAPI_ROOM_HOSTS?: string;
  readonly VITE_PEPA_RECORDING?: string;
  readonly VITE_PEPA_MAX_CALL_SECONDS?: string;
  readonly VITE_PEPA_DEMO?: string;
  readonly VITE_TOKEN_MINT?: string;
  readonly VITE_COURT_URL?: string;
  readonly VITE_SOCIAL_URL?: string;
  readonly VITE_FOOTER_X_URL?: string;
  readonly VITE_FOOTER_TELEGRAM_URL?: string;
  readonly VITE_FOOTER_DISCORD_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
