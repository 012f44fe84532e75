export * from './windows-exporter-service-monitor.js';
export {
  ServiceMonitorController,
  type ServiceMonitorControllerOptions,
} from './service-monitor-controller.js';
