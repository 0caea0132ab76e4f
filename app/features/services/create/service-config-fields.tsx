import type { FieldMetadata } from "@conform-to/react";
import type { CreatableServiceType } from "#contract/service-catalogue";
import { CacheFields } from "./cache-fields";
import type { ConfigField } from "./config-field";
import type { AnyConfig, AnyCreateServiceForm } from "./create-form";
import { ControlPlaneFields } from "./control-plane-fields";
import { DatabaseFields } from "./database-fields";
import { FileStorageFields } from "./file-storage-fields";
import { KubernetesFields } from "./kubernetes-fields";
import { NetworkFields } from "./network-fields";
import { NosqlDatabaseFields } from "./nosql-database-fields";
import { QueueFields } from "./queue-fields";
import { ServerlessFields } from "./serverless-fields";
import { TlsFields } from "./tls-fields";

/** The fields of `serviceType`'s configuration, named under `config.` in the create form. */
export function ServiceConfigFields({
  serviceType,
  config,
  environmentName,
}: {
  serviceType: CreatableServiceType;
  config: FieldMetadata<AnyConfig, AnyCreateServiceForm, string[]>;
  environmentName: string;
}) {
  // The form's schema follows the type, so its config fieldset is that type's.
  const as = <T extends CreatableServiceType>() => config as unknown as ConfigField<T>;
  switch (serviceType) {
    case "database":
      return <DatabaseFields config={as<"database">()} />;
    case "cache":
      return <CacheFields config={as<"cache">()} />;
    case "queue":
      return <QueueFields config={as<"queue">()} />;
    case "file-storage":
      return <FileStorageFields config={as<"file-storage">()} />;
    case "nosql-database":
      return <NosqlDatabaseFields config={as<"nosql-database">()} />;
    case "serverless":
      return <ServerlessFields config={as<"serverless">()} environmentName={environmentName} />;
    case "kubernetes":
      return <KubernetesFields config={as<"kubernetes">()} />;
    case "control-plane":
      return <ControlPlaneFields config={as<"control-plane">()} />;
    case "network":
      return <NetworkFields config={as<"network">()} />;
    case "tls":
      return <TlsFields config={as<"tls">()} />;
  }
}
