// What other features and app/ may use of this feature (design §10.10). Kept light: the queue's
// chunk imports it for the address of the form.
/** The address of the SOC's incident registration form. */
export const SOC_REGISTER_PATH = '/soc/incidents/new';
