// The names of agency document types in each language: a notice names a document's type, never its code.
import type { AgencyDocumentType } from '../db/schema';
import type { Localized } from './index';

/** What an agency document proves, in words (a notice names it, never its code). */
export const AGENCY_DOCUMENT_NAMES: Readonly<Record<AgencyDocumentType, Localized>> = {
  BUSINESS_REGISTRATION: { en: 'business registration', fr: 'immatriculation de la société' },
  TAX_REGISTRATION: { en: 'tax registration', fr: 'immatriculation fiscale' },
  OWNER_IDENTITY: { en: "owner's identity document", fr: "pièce d'identité du gérant" },
  PROOF_OF_ADDRESS: { en: 'proof of address', fr: 'justificatif de domicile' },
  INSURANCE: { en: 'insurance certificate', fr: "attestation d'assurance" },
  TRANSPORT_LICENSE: { en: 'transport licence', fr: 'licence de transport' },
  OTHER: { en: 'other document', fr: 'autre document' },
};
